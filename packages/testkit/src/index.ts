export {};
export * from "./mock-openai-server";
export * from "./generate-session";
export * from "./bench";
