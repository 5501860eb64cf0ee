import { cloneElement, Suspense, useState, type KeyboardEvent, type PointerEvent, type ReactElement, type ReactNode } from "react";

type TriggerProps = {
  "aria-haspopup"?: "menu";
  "aria-expanded"?: boolean;
  onPointerDown?: (event: PointerEvent<HTMLButtonElement>) => void;
  onKeyDown?: (event: KeyboardEvent<HTMLButtonElement>) => void;
};

/**
 * A menu button whose menu loads on first use. Radix's menu (popper, floating-ui, focus and dismiss
 * handling: about 20 KB gzipped) is only needed once someone opens it, and the header shows two
 * menu buttons on every signed-in page. Until then `trigger` is drawn as it will be, announced as a
 * menu button, and opens on what opens Radix's (a primary pointer press; Enter, Space or the down
 * arrow); `menu(trigger)` is then rendered (a React.lazy module holding the Radix menu, which
 * should mount open) and stays.
 */
export function DeferredMenu({ trigger, menu }: { trigger: ReactElement<TriggerProps>; menu: (trigger: ReactElement) => ReactNode }) {
  const [loaded, setLoaded] = useState(false);
  if (loaded) return <Suspense fallback={trigger}>{menu(trigger)}</Suspense>;
  return cloneElement(trigger, {
    "aria-haspopup": "menu",
    "aria-expanded": false,
    onPointerDown: (event) => {
      if (event.button === 0 && !event.ctrlKey) setLoaded(true);
    },
    onKeyDown: (event) => {
      if (event.key === "Enter" || event.key === " " || event.key === "ArrowDown") {
        event.preventDefault();
        setLoaded(true);
      }
    },
  });
}
