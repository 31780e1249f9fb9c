export declare const REPO_ROOT: string;
export declare function fixturesPath(): string;
export declare function fixturesPresent(): boolean;
export declare function fixturesRequired(): boolean;
export declare const NOT_RUN: string;
export declare function conformanceTestFiles(dirs?: string[]): string[];
