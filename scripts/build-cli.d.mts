export declare const CLI_BUNDLE: string;
export declare function cliBundleStale(bundle?: string, inputs?: string[]): boolean;
export declare function buildCli(): Promise<string>;
export declare function cliModule(): Promise<string>;
