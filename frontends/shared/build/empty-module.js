// Stands in for a stylesheet in the server bundle.
export {};
