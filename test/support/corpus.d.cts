/** The real-world page corpus folder beside the project (see corpus.cjs). */
export declare const CORPUS_DIR: string;
/** The corpus folder, or undefined (after one clear line) when it is absent and not required. */
export declare function corpusDir(what: string): string | undefined;
