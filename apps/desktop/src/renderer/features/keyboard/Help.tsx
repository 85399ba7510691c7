/** Keyboard help ("?"): every key, from the same command list as the palette. */
import { useBonsai } from "../../state/store";
import { COMMANDS, type Command } from "./commands";
import { Dialog } from "../../shell/Dialog";

const GROUPS: Command["group"][] = ["Tree", "Panels", "Session", "App"];
const EXTRA: Array<{ keys: string; title: string; group: Command["group"] }> = [
  { keys: "Tab", title: "Move between the session list, the tree, the panels and the composer", group: "App" },
  { keys: "Esc", title: "Close a dialog (and cancel a branch summary being written)", group: "App" },
  { keys: "Ctrl+Enter", title: "Send the prompt in the composer", group: "Session" },
  { keys: "Double-click", title: "Switch branch to a node", group: "Tree" },
];

export function Help() {
  const open = useBonsai((s) => s.helpOpen);
  const setUi = useBonsai((s) => s.setUi);
  if (!open) return null;
  return (
    <Dialog label="Keyboard help" testId="keyboard-help" onClose={() => setUi({ helpOpen: false })} className="bz-help">
      <div className="bz-row bz-spread">
        <h2>Keyboard</h2>
        <button type="button" data-autofocus onClick={() => setUi({ helpOpen: false })} data-testid="keyboard-help-close">
          Close
        </button>
      </div>
      {GROUPS.map((g) => (
        <section key={g}>
          <h3>{g}</h3>
          <dl className="bz-keys">
            {[...COMMANDS.filter((c) => c.group === g && c.keys), ...EXTRA.filter((x) => x.group === g)].map((c) => (
              <div key={c.title}>
                <dt>
                  <kbd>{c.keys}</kbd>
                </dt>
                <dd>{c.title}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
      <p className="bz-muted">Every action, with or without a key, is in the command palette (Ctrl+K or ⌘K).</p>
    </Dialog>
  );
}
