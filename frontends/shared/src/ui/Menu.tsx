import * as RadixMenu from '@radix-ui/react-dropdown-menu';
import type { ComponentProps } from 'react';
import { cx } from './cx.ts';

export const Menu = RadixMenu.Root;
export const MenuTrigger = RadixMenu.Trigger;

export const MenuContent = ({
  className,
  sideOffset = 8,
  align = 'end',
  ...props
}: ComponentProps<typeof RadixMenu.Content>) => (
  <RadixMenu.Portal>
    <RadixMenu.Content className={cx('menu', className)} sideOffset={sideOffset} align={align} {...props} />
  </RadixMenu.Portal>
);

export const MenuItem = ({ className, ...props }: ComponentProps<typeof RadixMenu.Item>) => (
  <RadixMenu.Item className={cx('menu__item', className)} {...props} />
);

export const MenuLabel = ({ className, ...props }: ComponentProps<typeof RadixMenu.Label>) => (
  <RadixMenu.Label className={cx('menu__label', className)} {...props} />
);

export const MenuSeparator = () => <RadixMenu.Separator className="menu__separator" />;
