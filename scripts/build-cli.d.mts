export declare const CLI_BUNDLE: string;
export declare const CLI_MANIFEST: string;
export declare function cliBundleStale(bundle?: string, inputs?: string[], manifest?: string, base?: string): boolean;
export declare function manifestInputs(metafile: { inputs: Record<string, unknown> }, base?: string): string[];
export declare function buildCli(): Promise<string>;
export declare function cliModule(): Promise<string>;
export declare const BUILD_ID_PLACEHOLDER: string;
export declare function withBuildId(outputFiles: { path: string; contents: Uint8Array }[]): void;
