export {};
export * from "./generate-session";
