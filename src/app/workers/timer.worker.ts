// Timers for a run of rows, kept in a worker: a page hidden for a few minutes has its own chained timers throttled to
// about one a minute (Chrome's intensive throttling), which would stall a long run; a worker's timers are not.
interface TimerScope {
  postMessage(message: number): void;
  onmessage: ((event: MessageEvent<{ id: number; ms?: number }>) => void) | null;
}
const scope = self as unknown as TimerScope;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

scope.onmessage = ({ data }) => {
  if (data.ms === undefined) {
    clearTimeout(timers.get(data.id));
    timers.delete(data.id);
    return;
  }
  timers.set(
    data.id,
    setTimeout(() => {
      timers.delete(data.id);
      scope.postMessage(data.id);
    }, data.ms),
  );
};
