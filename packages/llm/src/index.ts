export * from "./summarizer";
export * from "./errors";
export * from "./openai-summarizer";
export * from "./remote-summarizer";
export * from "./offline-summarizer";
export * from "./retry";
export * from "./chat";
export * from "./prompts";
