/**
 * The asynchronous form of a store interface: each method answers through a Promise (of what it
 * answers in-process). What a worker proxy or a database server implements.
 */
export type Async<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};
