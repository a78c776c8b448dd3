/** The per-store manifest: the atomic record of live files ({@code engine/doc/manifest-format.md}). */
package io.basaltdb.engine.manifest;
