export interface PrometheusBinaries {
  prometheus: string;
  promtool: string | undefined;
  origin: string;
}
export declare const PROMETHEUS_NOT_RUN: string;
export declare function prometheusRequired(): boolean;
export declare function prometheusCacheDir(): string;
export declare function findPrometheus(): PrometheusBinaries | undefined;
export declare function ensurePrometheus(o?: { log?: (line: string) => void }): PrometheusBinaries | undefined;
export declare function prometheusVersion(bin: string): string | undefined;
export declare function prometheusTestFiles(dirs?: string[]): string[];
