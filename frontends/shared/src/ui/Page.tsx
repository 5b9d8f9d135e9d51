import { useEffect, type ReactNode } from 'react';
import { brand } from '@ticketing/proto/brand';
import { cx } from './cx.ts';

interface PageProps {
  title: string;
  /** When the visible heading differs from the browser tab's title, or there is none (the home page). */
  heading?: ReactNode;
  className?: string;
  children?: ReactNode;
}

/** A page's frame inside the shell's layout: its heading and the browser tab's title. */
export function Page({ title, heading = title, className, children }: PageProps) {
  useEffect(() => {
    document.title = `${title} · ${brand.name}`;
  }, [title]);
  return (
    <div className={cx('page', className)}>
      {heading && <h1 className="page__title">{heading}</h1>}
      {children}
    </div>
  );
}
