// A region that slides open and shut in a set time (the checkout's coupon and login
// forms in 400 ms, payment descriptions in 230 ms). While shut it is inert: hidden
// from assistive technology and out of the tab order. Reduced motion makes it instant.
import { useEffect, useEffectEvent, useState, type CSSProperties, type ReactNode } from 'react';
import styles from './collapsible.module.css';

export function Collapsible({
  open,
  duration,
  id,
  className,
  children,
  onOpened,
}: {
  open: boolean;
  /** Milliseconds the slide takes. */
  duration: number;
  id?: string;
  className?: string;
  children: ReactNode;
  /** Called once the region has finished sliding open. */
  onOpened?: () => void;
}) {
  // Content is clipped only while moving, so focus rings inside an open region show.
  const [settled, setSettled] = useState(open);
  // Read when the slide ends; a new function identity must not restart the slide.
  const opened = useEffectEvent(() => onOpened?.());

  useEffect(() => {
    setSettled(false);
    if (!open) return;
    const timer = setTimeout(() => {
      setSettled(true);
      opened();
    }, duration);
    return () => clearTimeout(timer);
  }, [open, duration]);

  return (
    <div
      id={id}
      className={`${styles.collapsible} ${className ?? ''}`}
      data-open={open}
      data-settled={open && settled}
      style={{ '--slide-duration': `${duration}ms` } as CSSProperties}
      inert={!open}
    >
      <div className={styles.inner}>{children}</div>
    </div>
  );
}
