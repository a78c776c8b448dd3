/**
 * The hash both storages and the SQL layer store values with: bloom filters of block files and
 * the salt byte of a salted table's keys.
 */
package io.basaltdb.storage.hash;
