import NIOCore

/// Opens a `CONNECT` tunnel through an HTTP proxy before TLS starts: holds back
/// `channelActive` (so the TLS handshake waits) and any writes until the proxy answers 2xx.
final class TunnelHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    private let request: String
    private var response = ByteBuffer()
    private var pending: [(NIOAny, EventLoopPromise<Void>?)] = []
    private var established = false

    init(host: String, port: Int, authorization: String?) {
        let authority = (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        request =
            "CONNECT \(authority) HTTP/1.1\r\nHost: \(authority)\r\n"
            + (authorization.map { "Proxy-Authorization: \($0)\r\n" } ?? "") + "\r\n"
    }

    func channelActive(context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: request)), promise: nil)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if established { context.write(data, promise: promise) } else { pending.append((data, promise)) }
    }

    func flush(context: ChannelHandlerContext) {
        if established { context.flush() }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !established else { return context.fireChannelRead(data) }
        var buffer = unwrapInboundIn(data)
        response.writeBuffer(&buffer)
        let view = response.readableBytesView
        guard let end = view.firstRange(of: Array("\r\n\r\n".utf8)) else {
            if response.readableBytes > 16 << 10 { fail(context, "response to CONNECT too long") }
            return
        }
        let head = String(decoding: view[view.startIndex..<end.lowerBound], as: UTF8.self)
        let status = head.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) }
        guard let status, (200..<300).contains(status) else {
            return fail(context, "CONNECT refused: \(head.split(separator: "\r\n").first ?? "")")
        }
        established = true
        context.fireChannelActive()
        for (data, promise) in pending { context.write(data, promise: promise) }
        pending = []
        context.flush()
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    private func fail(_ context: ChannelHandlerContext, _ text: String) {
        for (_, promise) in pending { promise?.fail(HTTPConnectionError.proxy(text)) }
        pending = []
        context.fireErrorCaught(HTTPConnectionError.proxy(text))
        context.close(promise: nil)
    }
}
