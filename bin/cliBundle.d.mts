// Types of ./cliBundle.mjs, for the tests that import it.
export declare const ROOT: string;
export declare const CLI_BUNDLE: { entry: string; outDir: string };
export declare const bundleFile: (outDir: string) => string;
export declare function bundleState(outDir: string): 'fresh' | 'stale' | 'missing';
export declare const asciiOnly: (text: string) => string;
export declare function buildBundle(bundle: {
  entry: string;
  outDir: string;
  root?: string;
}): Promise<string>;
export declare function freshCliBundle(): string | null;
