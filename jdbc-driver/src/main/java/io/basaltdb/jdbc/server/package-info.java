/** The Avatica server ({@code bin/basalt server}): the embedded driver over HTTP for BI tools. */
package io.basaltdb.jdbc.server;
