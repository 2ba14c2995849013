/* The least any localize built on the libxml2 cachectl carries (Sources/CLibXML2) can take: read the page, run
 * libxml2's HTML parser over it in SAX mode (no tree) with the options cachectl uses, count
 * the start tags, write nothing. Scripts/bench/localize times it as a process beside the
 * others, so its ratio to lxml bounds what cachectl can reach.
 *
 * The input is handed to libxml2 through a read callback, as cachectl does (LibXML2.swift,
 * parserContext(reading:)): htmlCreateMemoryParserCtxt would copy it first.
 *
 * Usage: libxml2-parse PAGE   (prints the number of start tags) */
#include <fcntl.h>
#include <libxml/HTMLparser.h>
#include <libxml/parserInternals.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct source {
    const char *bytes;
    size_t size, offset;
};

static long elements;

static void start_element(void *context, const xmlChar *name, const xmlChar **attributes) {
    (void)context;
    (void)name;
    (void)attributes;
    elements++;
}

static int read_chunk(void *user, char *out, int length) {
    struct source *source = user;
    size_t count = source->size - source->offset;
    if (count > (size_t)length) count = (size_t)length;
    memcpy(out, source->bytes + source->offset, count);
    source->offset += count;
    return (int)count;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: libxml2-parse PAGE\n");
        return 2;
    }
    int fd = open(argv[1], O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        perror(argv[1]);
        return 1;
    }
    char *bytes = malloc(st.st_size ? st.st_size : 1);
    size_t have = 0;
    while (have < (size_t)st.st_size) {
        ssize_t n = read(fd, bytes + have, st.st_size - have);
        if (n <= 0) {
            perror(argv[1]);
            return 1;
        }
        have += n;
    }
    close(fd);
    struct source source = {bytes, have, 0};
    htmlParserCtxtPtr context = htmlNewParserCtxt();
    xmlParserInputBufferPtr input =
        xmlParserInputBufferCreateIO(read_chunk, NULL, &source, XML_CHAR_ENCODING_NONE);
    xmlParserInputPtr stream = xmlNewIOInputStream(context, input, XML_CHAR_ENCODING_NONE);
    inputPush(context, stream);
    htmlSAXHandler sax;
    memset(&sax, 0, sizeof sax);
    sax.startElement = start_element;
    memcpy(context->sax, &sax, sizeof sax);
    htmlCtxtUseOptions(context, HTML_PARSE_RECOVER | HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
                                    HTML_PARSE_NODEFDTD | HTML_PARSE_IGNORE_ENC);
    xmlSwitchEncoding(context, XML_CHAR_ENCODING_UTF8);
    htmlParseDocument(context);
    htmlFreeParserCtxt(context);
    printf("%ld\n", elements);
    return 0;
}
