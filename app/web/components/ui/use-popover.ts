import { useEffect, useRef, useState } from 'react';

/** Open state of a dropdown panel, closed by a click outside `ref` or by Escape. */
export function usePopover<T extends HTMLElement>() {
  const [open, setOpen] = useState(false);
  const ref = useRef<T>(null);
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (ref.current && !ref.current.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        // Inside a modal, Escape must close the panel and not the dialog around it: a cancelled keydown
        // makes no close request to the <dialog> (HTML's close watchers), and the dialog checks for an
        // open panel too (Dialog's onCancel).
        event.preventDefault();
        event.stopPropagation();
        setOpen(false);
        // Back to the control that opened the panel (its first button), not to the page.
        ref.current?.querySelector<HTMLElement>('button')?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    const node = ref.current;
    node?.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      node?.removeEventListener('keydown', onKey);
    };
  }, [open]);
  return { open, setOpen, ref };
}
