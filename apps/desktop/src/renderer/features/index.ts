/**
 * The features mounted into the shell (see shell/slots.ts for the slots and what each gets).
 * The explorer replaces the shell's simple tree by setting SessionView here.
 */
import type { Features } from "../shell/slots";
import { ExplorerView } from "./ExplorerView";
import { HeaderItems, Overlays } from "./Overlays";
import "./explorer.css";

export const features: Features = { SessionView: ExplorerView, HeaderItems, Overlays };
