/**
 * The session token, as the API issued it, kept across visits. Apart from the rest of the session so that the
 * shell's first script can ask whether someone is signed in before any shared module has loaded.
 */
const TOKEN_KEY = 'token';

export const getToken = () => localStorage.getItem(TOKEN_KEY);
export const hasSession = () => getToken() !== null;
export const setToken = (token: string) => localStorage.setItem(TOKEN_KEY, token);
export const clearToken = () => localStorage.removeItem(TOKEN_KEY);
