import * as RadixTabs from '@radix-ui/react-tabs';
import type { ComponentProps } from 'react';
import { cx } from './cx.ts';

export const Tabs = RadixTabs.Root;

export const TabsList = ({ className, ...props }: ComponentProps<typeof RadixTabs.List>) => (
  <RadixTabs.List className={cx('tabs__list', className)} {...props} />
);

export const TabsTrigger = ({ className, ...props }: ComponentProps<typeof RadixTabs.Trigger>) => (
  <RadixTabs.Trigger className={cx('tabs__trigger', className)} {...props} />
);

export const TabsContent = ({ className, ...props }: ComponentProps<typeof RadixTabs.Content>) => (
  <RadixTabs.Content className={cx('tabs__content', className)} {...props} />
);
