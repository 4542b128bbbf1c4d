"""A pytest plugin for the course's test command (pyproject.toml's addopts: `-p embedlab._test_command`).

nbformat, which nbval and the course's tests import, imports jsonschema, and jsonschema imports
`rfc3987_syntax` when it is installed (jupyter-events asks for it): that module builds some forty
Earley parsers as it is imported, about 3 s of CPU in every process that imports nbformat, which is
every pytest process (and each xdist worker). It only serves jsonschema's "iri" and "iri-reference"
format checks, which nothing the tests run asks for (a notebook's schema has no such format). `-p`
loads this module before pytest's other plugins, so marking the module absent here makes jsonschema
leave those two checks out, as it does when the package is not installed. Nothing else changes.
"""

import sys

sys.modules.setdefault("rfc3987_syntax", None)  # None: `import rfc3987_syntax` raises ImportError
