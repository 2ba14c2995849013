/* Every SAX event libxml2's HTML parser reports for a file, one per line, with the parser's
 * options as cachectl sets them: start tags (with the bytes consumed, the line and column,
 * and the attributes),
 * end tags, text, comments, CDATA, and the line count at the end. With a seed, the file is
 * pushed in chunks of 1-97 bytes (as a page read in pieces is), else parsed from memory.
 * Built by accelerators.py against the carried libxml2 and against its upstream text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/HTMLparser.h>
#include <libxml/parserInternals.h>
static FILE *out;
static htmlParserCtxtPtr g;
static void start(void *u, const xmlChar *name, const xmlChar **atts) {
    fprintf(out, "S %s @%ld %d:%d", name, (long)xmlByteConsumed(g), g->input ? g->input->line : -1,
            g->input ? g->input->col : -1);
    if (atts) for (int i = 0; atts[i]; i += 2) { fprintf(out, " [%s=", atts[i]); if (atts[i+1]) fwrite(atts[i+1],1,strlen((char*)atts[i+1]),out); else fputs("(null)",out); fputs("]",out);} 
    fputc('\n', out);
}
static void end(void *u, const xmlChar *name) { fprintf(out, "E %s\n", name); }
static void chars(void *u, const xmlChar *c, int n) { fputs("C ", out); fwrite(c,1,n,out); fputc('\n', out); }
static void comment(void *u, const xmlChar *c) { fprintf(out, "M %s\n", c); }
static void cdata(void *u, const xmlChar *c, int n) { fputs("D ", out); fwrite(c,1,n,out); fputc('\n', out); }
int main(int argc, char **argv) {
    out = stdout;
    FILE *f = fopen(argv[1], "rb"); fseek(f,0,SEEK_END); long n = ftell(f); fseek(f,0,SEEK_SET);
    char *buf = malloc(n+1); fread(buf,1,n,f); fclose(f);
    htmlSAXHandler sax; memset(&sax, 0, sizeof sax);
    sax.initialized = 1; sax.startElement = start; sax.endElement = end; sax.characters = chars; sax.comment = comment; sax.cdataBlock = cdata;
    unsigned seed = argc > 2 ? (unsigned)atoi(argv[2]) : 0;
    if (seed) {
        g = htmlCreatePushParserCtxt(NULL, NULL, NULL, 0, NULL, XML_CHAR_ENCODING_UTF8);
        *g->sax = sax;
        htmlCtxtUseOptions(g, HTML_PARSE_RECOVER|HTML_PARSE_NOERROR|HTML_PARSE_NOWARNING|HTML_PARSE_NONET|HTML_PARSE_NODEFDTD|HTML_PARSE_IGNORE_ENC);
        long p = 0;
        while (p < n) { seed = seed * 1103515245u + 12345u; long k = 1 + (seed >> 16) % 97; if (p + k > n) k = n - p; htmlParseChunk(g, buf + p, (int)k, 0); p += k; }
        htmlParseChunk(g, NULL, 0, 1);
        fprintf(out, "line %d\n", g->input ? g->input->line : -1);
        htmlFreeParserCtxt(g);
        return 0;
    }
    g = htmlCreateMemoryParserCtxt(buf, (int)n);
    *g->sax = sax;
    htmlCtxtUseOptions(g, HTML_PARSE_RECOVER|HTML_PARSE_NOERROR|HTML_PARSE_NOWARNING|HTML_PARSE_NONET|HTML_PARSE_NODEFDTD|HTML_PARSE_IGNORE_ENC);
    xmlSwitchEncoding(g, XML_CHAR_ENCODING_UTF8);
    htmlParseDocument(g);
    fprintf(out, "line %d\n", g->input ? g->input->line : -1);
    htmlFreeParserCtxt(g);
    return 0;
}
