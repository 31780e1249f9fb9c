export declare function installTree(from: string, to: string, opts?: { last?: string[] }): void;
export declare function buildDirBeside(to: string, tag?: string): string;
