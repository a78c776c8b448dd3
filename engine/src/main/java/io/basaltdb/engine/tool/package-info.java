/** Command-line tools over the engine: the demo, and (later) dumps of WAL, files and manifests. */
package io.basaltdb.engine.tool;
