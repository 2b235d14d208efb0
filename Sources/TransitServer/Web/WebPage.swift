/// The page `transit-server` serves at `/`: try every query from a browser (stop search as
/// you type, a stop's board refreshed by itself, a journey with its legs, fare and line on a
/// map, the city catalogue). Plain HTML and CSS here and a small script (`WebPageScript`),
/// served from the binary; the script calls the same `/v1` API as any client. Nothing is
/// loaded from elsewhere (the Content-Security-Policy says `'self'` only).
enum WebPage {
    /// The headers every asset of the page is sent with.
    static let securityHeaders: [(String, String)] = [
        (
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
        ),
        ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
    ]

    static let html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>transit-server</title>
        <link rel="icon" href="data:,">
        <link rel="stylesheet" href="/app.css">
        <script src="/app.js" defer></script>
        </head>
        <body>
        <header><h1>transit-server</h1>
        <label for="bundle">Bundle</label> <select id="bundle"></select>
        <span id="live-badge" class="badge" hidden>live</span></header>
        <main>
        <section id="stops" aria-labelledby="stops-title">
          <h2 id="stops-title">Stops</h2>
          <label for="stop-search">Find a stop</label>
          <input id="stop-search" type="search" autocomplete="off" placeholder="three letters of its name">
          <ul id="stop-results" aria-live="polite"></ul>
        </section>
        <section id="board" aria-labelledby="board-title" hidden>
          <h2 id="board-title">Departures</h2>
          <p id="board-note" class="note"></p>
          <table><thead><tr><th scope="col">time</th><th scope="col">line</th><th scope="col">to</th><th scope="col">platform</th><th scope="col">delay</th></tr></thead>
          <tbody id="board-rows" aria-live="polite"></tbody></table>
        </section>
        <section id="planner" aria-labelledby="planner-title">
          <h2 id="planner-title">Plan a journey</h2>
          <form id="plan-form">
            <label for="plan-from">From (stop id)</label> <input id="plan-from" required autocomplete="off">
            <label for="plan-to">To (stop id)</label> <input id="plan-to" required autocomplete="off">
            <label for="plan-at">At (local time, blank: now)</label> <input id="plan-at" placeholder="2026-03-30T08:00">
            <label><input id="plan-arrive-by" type="checkbox"> arrive by</label>
            <button type="submit">Plan</button>
          </form>
          <p id="plan-error" class="error" role="alert"></p>
          <ol id="journeys" aria-live="polite"></ol>
          <svg id="journey-map" role="img" aria-label="The journey's rides on a map" viewBox="0 0 600 400" hidden></svg>
        </section>
        <section id="cities" aria-labelledby="cities-title">
          <h2 id="cities-title">Cities</h2>
          <label for="city-search">Find a city</label> <input id="city-search" type="search" autocomplete="off">
          <ul id="city-results" aria-live="polite"></ul>
        </section>
        </main>
        </body>
        </html>

        """

    static let style = """
        :root{--ink:#17202a;--muted:#4b5561;--line:#cfd6dd;--accent:#0b5cad;--bad:#a61b14;--bg:#fff}
        *{box-sizing:border-box}body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
        header{display:flex;flex-wrap:wrap;gap:.6rem;align-items:center;padding:.6rem 1rem;border-bottom:1px solid var(--line)}
        h1{font-size:1.2rem;margin:0 1rem 0 0}h2{font-size:1.1rem;margin:.2rem 0 .6rem}
        main{display:grid;gap:1rem;padding:1rem;max-width:72rem;margin:0 auto;grid-template-columns:repeat(auto-fit,minmax(20rem,1fr))}
        section{border:1px solid var(--line);border-radius:.4rem;padding:.8rem}
        label{display:block;font-weight:600;margin:.3rem 0 .15rem}label:has(input[type=checkbox]){font-weight:400}
        input,select,button{font:inherit;padding:.35rem .5rem;border:1px solid #8a949e;border-radius:.3rem;max-width:100%}
        input:not([type=checkbox]){width:100%}button{background:var(--accent);color:#fff;border-color:var(--accent);margin-top:.5rem;cursor:pointer}
        :focus-visible{outline:3px solid #f0a500;outline-offset:2px}
        ul,ol{padding-left:1.2rem}#stop-results button{background:none;color:var(--accent);border:0;padding:.15rem 0;text-align:left;text-decoration:underline}
        table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.2rem .4rem;border-bottom:1px solid var(--line)}
        .note{color:var(--muted);font-size:.9rem}.error{color:var(--bad)}.badge{background:#1e6b35;color:#fff;border-radius:.3rem;padding:0 .4rem;font-size:.85rem}
        .line{display:inline-block;min-width:2rem;text-align:center;border-radius:.25rem;padding:0 .3rem;font-weight:600}
        svg{width:100%;height:auto;background:#f6f8fa;border:1px solid var(--line);margin-top:.5rem}
        svg .ride{fill:none;stroke-width:4;stroke-linecap:round;stroke-linejoin:round}svg .end{fill:var(--ink)}
        """
}
