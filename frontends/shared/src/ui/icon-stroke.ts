/** The line style of every icon of the site (24 × 24 outlines in the text's colour); spread it on the `<svg>`. */
export const iconStroke = {
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
} as const;
