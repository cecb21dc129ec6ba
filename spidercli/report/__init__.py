"""Reports and pictures: the text report, the HTML replay page, SVG boards."""
