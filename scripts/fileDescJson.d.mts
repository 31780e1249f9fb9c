export declare function fileDescJson(b64: string): string;
export declare function withDecodedFileDescs(source: string): string;
