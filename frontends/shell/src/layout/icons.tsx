import { Icon } from '@ticketing/shared';

export const SearchIcon = () => <Icon d="m20 20-3.5-3.5" circle={[11, 11, 7]} size={22} />;
export const MenuIcon = () => <Icon d="M4 6h16M4 12h16M4 18h16" size={24} />;
