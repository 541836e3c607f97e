// The sections and who sees them: each section shows only what the user's role allows (docs/roles.md).
import type { Role } from './api.js';

export interface Section {
  path: string;
  title: string;
  /** Roles that see the section in the menu and may open it. */
  roles: Role[];
}

const EVERYONE: Role[] = ['owner', 'admin', 'editor', 'author', 'viewer'];
const ADMINS: Role[] = ['owner', 'admin'];

export const SECTIONS: Section[] = [
  { path: '/keys', title: 'API Keys', roles: EVERYONE },
  { path: '/oauth-apps', title: 'OAuth Apps', roles: EVERYONE },
  { path: '/connected-apps', title: 'Connected Apps', roles: EVERYONE },
  { path: '/settings', title: 'API Settings', roles: ADMINS },
  { path: '/usage', title: 'Usage', roles: EVERYONE },
  { path: '/users', title: 'Users', roles: ADMINS },
  { path: '/content', title: 'Content', roles: EVERYONE },
  { path: '/content-model', title: 'Content model', roles: ADMINS },
  { path: '/media', title: 'Media', roles: EVERYONE },
  { path: '/profile', title: 'Profile', roles: EVERYONE },
];

export const isAdmin = (role: Role) => ADMINS.includes(role);
/** Roles that may create content; editors and above may change anyone's. */
export const mayWriteContent = (role: Role) => role !== 'viewer';
export const mayEditAnyContent = (role: Role) => role === 'owner' || role === 'admin' || role === 'editor';
