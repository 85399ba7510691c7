/** Compile-time agreement checks: `agree<Same<A, B>>()` fails to type-check when A and B differ. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const agree = <T extends true>(_t?: T): void => undefined;
