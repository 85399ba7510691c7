export * from "./entries";
export * from "./skeleton";
export * from "./settings";
export * from "./prompts.generated";
