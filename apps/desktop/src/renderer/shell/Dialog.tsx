/**
 * A modal dialog: a labelled box over a dimmed window, focus moved into it and kept there (Tab
 * cycles inside), Escape or a click outside closes it, and focus goes back where it was.
 */
import { useEffect, useRef, type ReactNode } from "react";

interface DialogProps {
  label: string;
  testId: string;
  onClose(): void;
  className?: string;
  children: ReactNode;
}

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

export function Dialog({ label, testId, onClose, className, children }: DialogProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const first = box.current?.querySelector<HTMLElement>("[data-autofocus]") ?? box.current?.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    return () => before?.focus({ preventScroll: true });
  }, []);
  return (
    <div className="bz-modal-backdrop" onClick={onClose}>
      <div
        ref={box}
        className={`bz-modal ${className ?? ""}`}
        role="dialog"
        aria-modal="true"
        aria-label={label}
        data-testid={testId}
        onClick={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            e.preventDefault();
            e.stopPropagation();
            onClose();
          } else if (e.key === "Tab" && box.current) {
            const items = [...box.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
            if (items.length === 0) return;
            const [first, last] = [items[0]!, items[items.length - 1]!];
            if (e.shiftKey && document.activeElement === first) {
              e.preventDefault();
              last.focus();
            } else if (!e.shiftKey && document.activeElement === last) {
              e.preventDefault();
              first.focus();
            }
          }
        }}
      >
        {children}
      </div>
    </div>
  );
}
