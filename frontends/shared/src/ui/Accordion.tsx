import * as RadixAccordion from '@radix-ui/react-accordion';
import type { ReactNode } from 'react';

/** One item open at a time; the open one can be closed again. */
export function Accordion({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <RadixAccordion.Root type="single" collapsible className={className}>
      {children}
    </RadixAccordion.Root>
  );
}

export function AccordionItem({ value, title, children }: { value: string; title: ReactNode; children: ReactNode }) {
  return (
    <RadixAccordion.Item value={value} className="accordion__item">
      <RadixAccordion.Header className="accordion__header">
        <RadixAccordion.Trigger className="accordion__trigger">
          {title}
          <span className="accordion__chevron" aria-hidden="true" />
        </RadixAccordion.Trigger>
      </RadixAccordion.Header>
      <RadixAccordion.Content className="accordion__content">{children}</RadixAccordion.Content>
    </RadixAccordion.Item>
  );
}
