/** The command palette (Ctrl/Cmd+K): type to filter every command, arrows to choose, Enter to run. */
import { useMemo, useState } from "react";
import { useBonsai } from "../../state/store";
import { COMMANDS, goToEntry, matchCommands } from "./commands";
import { Dialog } from "../../shell/Dialog";

export function Palette() {
  const open = useBonsai((s) => s.paletteOpen);
  if (!open) return null;
  return <PaletteDialog />;
}

function PaletteDialog() {
  const setUi = useBonsai((s) => s.setUi);
  const state = useBonsai();
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const matches = useMemo(() => {
    const commands = matchCommands(query).filter((c) => c.enabled(state));
    // an entry id (from the inspector, the transcript, a log): go to it
    const id = query.trim();
    return id !== "" && state.index?.byId.has(id) ? [goToEntry(id), ...commands] : commands;
  }, [query, state]);
  const close = () => setUi({ paletteOpen: false });
  const run = (i: number) => {
    const command = matches[i];
    if (!command) return;
    close();
    command.run(useBonsai.getState());
  };
  const activeId = matches[active] ? `bz-cmd-${matches[active].id}` : undefined;
  return (
    <Dialog label="Commands" testId="command-palette" onClose={close} className="bz-palette">
      <input
        data-autofocus
        role="combobox"
        aria-expanded="true"
        aria-controls="bz-palette-list"
        aria-activedescendant={activeId}
        aria-label="Type a command"
        placeholder="Type a command, or an entry id to go to it…"
        value={query}
        data-testid="palette-input"
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown") {
            e.preventDefault();
            setActive((a) => Math.min(matches.length - 1, a + 1));
          } else if (e.key === "ArrowUp") {
            e.preventDefault();
            setActive((a) => Math.max(0, a - 1));
          } else if (e.key === "Enter") {
            e.preventDefault();
            run(active);
          }
        }}
      />
      <ul className="bz-palette-list" id="bz-palette-list" role="listbox" aria-label="Commands">
        {matches.map((c, i) => (
          <li
            key={c.id}
            id={`bz-cmd-${c.id}`}
            role="option"
            aria-selected={i === active}
            className={i === active ? "bz-palette-on" : ""}
            data-testid="palette-item"
            data-command={c.id}
            onMouseEnter={() => setActive(i)}
            onClick={() => run(i)}
          >
            <span>{c.title}</span>
            <span className="bz-palette-meta">
              {c.group}
              {c.keys ? <kbd>{c.keys}</kbd> : null}
            </span>
          </li>
        ))}
        {matches.length === 0 ? <li className="bz-muted">No command matches “{query}”.</li> : null}
      </ul>
      <div className="bz-muted bz-palette-count">{COMMANDS.length} commands; those that cannot run now are hidden.</div>
    </Dialog>
  );
}
