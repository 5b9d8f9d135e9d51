import { createContext, useContext, useId, type ReactNode } from 'react';

/** The name the items of one accordion share: the browser opens one `<details>` of a name at a time. */
const AccordionName = createContext<string | undefined>(undefined);

/**
 * One item open at a time; the open one can be closed again. The browser's own disclosure, so it works before the
 * page's code has arrived.
 */
export function Accordion({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div className={className}>
      <AccordionName value={useId()}>{children}</AccordionName>
    </div>
  );
}

export function AccordionItem({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <details name={useContext(AccordionName)} className="accordion__item">
      <summary className="accordion__trigger">
        {title}
        <span className="accordion__chevron" aria-hidden="true" />
      </summary>
      <div className="accordion__content">{children}</div>
    </details>
  );
}
