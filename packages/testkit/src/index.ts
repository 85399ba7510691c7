export {};
export * from "./mock-openai-server";
export * from "./generate-session";
export * from "./relink";
export * from "./bench";
