import { Link } from '@ticketing/shared/router';
import type { UserView } from '@ticketing/proto';
import { initials, signOut } from '@ticketing/shared';
import { Menu, MenuContent, MenuItem, MenuLabel, MenuSeparator, MenuTrigger } from '@ticketing/shared/primitives';
import { adminLinks } from './nav-links.ts';

export function AvatarMenu({ user }: { user: UserView }) {
  return (
    <Menu>
      {/* The initials are what is seen; the name is what a screen reader says. */}
      <MenuTrigger className="avatar">
        <span aria-hidden="true">{initials(user.name)}</span>
        <span className="visually-hidden">Menu da conta de {user.name}</span>
      </MenuTrigger>
      <MenuContent>
        <MenuLabel className="avatar-menu__who">
          <span className="avatar-menu__name">{user.name}</span>
          <span className="avatar-menu__email">{user.email}</span>
        </MenuLabel>
        <MenuSeparator />
        <MenuItem asChild>
          <Link to="/profile">Meu Perfil</Link>
        </MenuItem>
        {adminLinks({ status: 'authenticated', user }).map(({ to, label }) => (
          <MenuItem key={to} asChild>
            <Link to={to}>{label}</Link>
          </MenuItem>
        ))}
        <MenuSeparator />
        <MenuItem onSelect={signOut}>Sair</MenuItem>
      </MenuContent>
    </Menu>
  );
}
