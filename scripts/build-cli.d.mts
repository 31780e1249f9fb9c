export declare const CLI_BUNDLE: string;
export declare const CLI_MANIFEST: string;
export declare function cliBundleStale(bundle?: string, inputs?: string[], manifest?: string, base?: string): boolean;
export declare function manifestInputs(metafile: { inputs: Record<string, unknown> }, base?: string): string[];
export declare function buildCli(): Promise<string>;
export declare function cliModule(): Promise<string>;
