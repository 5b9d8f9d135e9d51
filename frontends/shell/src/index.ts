// An async boundary: the shared modules (React, the router…) are negotiated with the remotes before any runs.
void import('./bootstrap.tsx');
