/**
 * The accessible primitives built on Radix (accordion, dialog, menu, progress, tabs). Unlike the rest of the
 * shared package they hold no state shared between apps, so they are not a federation singleton: each app bundles
 * only the ones its pages use, in those pages' chunks, and the home page never downloads a menu or a dialog it
 * does not open. Imported from `@ticketing/shared/primitives`.
 */
export { Accordion, AccordionItem } from './ui/Accordion.tsx';
export { ConfirmActions, Dialog, DialogClose, DialogContent, DialogTrigger } from './ui/Dialog.tsx';
export { Menu, MenuContent, MenuItem, MenuLabel, MenuSeparator, MenuTrigger } from './ui/Menu.tsx';
export { Progress } from './ui/Progress.tsx';
export { Tabs, TabsContent, TabsList, TabsTrigger } from './ui/Tabs.tsx';
