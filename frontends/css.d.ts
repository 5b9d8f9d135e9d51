// Stylesheets are bundled by rspack; a plain import only adds the rules to the page.
declare module '*.css';
