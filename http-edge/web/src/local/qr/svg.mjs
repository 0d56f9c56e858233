// The QR code as an SVG document: a white square (so it scans on a dark page too) and all dark
// modules as one path, in module units through the viewBox, so it scales without blur.

/// One path for the dark modules of `dark` (boolean rows), shifted by `margin` modules: each run
/// of dark modules on a row is one rectangle, "M{x} {y}h{run}v1h-{run}z".
export function modulesPath(dark, margin = 0) {
  const parts = [];
  dark.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) {
      if (!row[x]) continue;
      let run = 1;
      while (x + run < row.length && row[x + run]) run++;
      parts.push(`M${x + margin} ${y + margin}h${run}v1h-${run}z`);
      x += run - 1;
    }
  });
  return parts.join("");
}

/// The whole SVG: `size` px wide and high, the code plus `margin` quiet modules each side.
export function qrSvg(dark, { size, margin }) {
  const side = dark.length + 2 * margin;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${side} ${side}" shape-rendering="crispEdges">`
    + `<rect width="${side}" height="${side}" fill="#fff"/>`
    + `<path d="${modulesPath(dark, margin)}" fill="#000"/></svg>\n`;
}
