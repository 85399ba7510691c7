/** Ids and the numbers every schema shares. */
import { z } from "zod";

/** Session and entry ids: non-empty, bounded, no control characters. */
export const idSchema = z
  .string()
  .min(1, "id must not be empty")
  .max(200, "id is longer than 200 characters")
  .refine((s) => ![...s].some((c) => c.charCodeAt(0) < 32), "id contains control characters");

/** A leaf id: an entry id, or null for "before the first entry". Absent = the session's current leaf. */
export const leafIdSchema = idSchema.nullable();

// shared by the schemas of this folder (not exported from the package)
export const count = z.number().int().nonnegative();
export const tokens = z.number().nonnegative();
export const nonNegInt = z.number().int().nonnegative();
export const posInt = z.number().int().positive();
export const url = z
  .string()
  .max(2048, "must be at most 2,048 characters")
  .refine((s) => s === "" || /^https?:\/\/[^\s]+$/u.test(s), "must be empty or an http(s) URL");
