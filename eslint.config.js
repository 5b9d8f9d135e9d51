export { default } from './tools/lint/index.js';
