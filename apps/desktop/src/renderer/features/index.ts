/**
 * The features mounted into the shell (see shell/slots.ts for the slots and what each gets).
 * The explorer replaces the shell's simple tree by setting SessionView here.
 */
import type { Features } from "../shell/slots";

export const features: Features = {};
