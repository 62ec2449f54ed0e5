// Progress as a person reads it: "41 of 200, about 12 minutes left".

export function progressText(done: number, total: number, secondsLeft: number | null): string {
  const head = `${done.toLocaleString('en')} of ${total.toLocaleString('en')}`;
  if (done >= total) return `${head}, done`;
  if (secondsLeft === null) return head;
  const minutes = Math.round(secondsLeft / 60);
  if (minutes < 1) return `${head}, less than a minute left`;
  if (minutes < 90) return `${head}, about ${minutes} minute${minutes === 1 ? '' : 's'} left`;
  const hours = Math.round(minutes / 60);
  return `${head}, about ${hours} hours left`;
}
