export declare const REAL_DIR: string;
export declare const REAL_FILES: {
    "claude-code": string[];
    codex: string[];
    pi: string[];
};
export declare const ALL_REAL_FILES: {
    agent: "claude-code" | "codex" | "pi";
    name: string;
}[];
export declare const HAVE_REAL: boolean;
export declare function realPath(agent: string, name: string): string;
export declare function readReal(agent: string, name: string): string;
/** The parsed lines of a real file (for counting what the README's tables count). */
export declare function realLines(agent: string, name: string): Record<string, unknown>[];
/** The file whose name starts with `prefix` (the README names files by their source). */
export declare function realFile(agent: keyof typeof REAL_FILES, prefix: string): string;
