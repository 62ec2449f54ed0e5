// The few jstat functions the trust statistics use (src/core/trust/distributions.ts, the only importer): jstat ships
// no types, and its default export is the jStat object itself (a UMD module).
declare module 'jstat' {
  interface JStat {
    studentt: { cdf(x: number, dof: number): number };
    beta: { inv(p: number, a: number, b: number): number };
    normal: { inv(p: number, mean: number, std: number): number };
  }
  const jStat: JStat;
  export default jStat;
}
