export declare function systemChromium(): string | undefined;
export declare function playwrightChromium(): Promise<string | undefined>;
export declare function installPlaywrightChromium(cwd: string): boolean;
export declare function aptInstallChromium(): boolean;
