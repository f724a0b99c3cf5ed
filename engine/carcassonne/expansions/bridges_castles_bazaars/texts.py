"""The words of Bridges, Castles & Bazaars (English and Spanish): every prompt, option label,
event, score part and refusal of the expansion, registered in the engine's catalogue."""

from __future__ import annotations

from engine.core import messages

ID = "bridges_castles_bazaars"
BRIDGES = "bcb.bridges"
CASTLES = "bcb.castles"
MARKETS = "bcb.markets"
BIDDING = "bcb.bidding"

messages.register(
    {
        f"exp.{ID}": ("Bridges, Castles & Bazaars", "Mercados y Puentes"),
        # ---------------------------------------------------------------- lobby
        f"opt.{BRIDGES}": ("Bridges", "Puentes"),
        f"help.{BRIDGES}": (
            "wooden bridges carry roads over fields (3 each, 2 with 5–6 players)",
            "puentes de madera llevan caminos sobre campos (3 cada uno, 2 con 5–6 jugadores)",
        ),
        f"opt.{CASTLES}": ("Castles", "Castillos"),
        f"help.{CASTLES}": (
            "a completed small city of your own may become a castle (3 each, 2 with 5–6)",
            "una ciudad pequeña propia completada puede ser un castillo (3 cada uno, 2 con 5–6)",
        ),
        f"opt.{MARKETS}": ("Markets", "Mercados"),
        f"help.{MARKETS}": (
            "a market tile reveals one tile per player for everyone to obtain",
            "una pieza de mercado descubre una pieza por jugador para que cada uno obtenga una",
        ),
        f"opt.{BIDDING}": ("Market bids", "Pujas del mercado"),
        f"help.{BIDDING}": (
            "sealed bids: secret bids by direct message, revealed together; open bids: one bid "
            "each in turn order; no auction: each player in turn takes a tile and plays it",
            "pujas secretas: por mensaje directo, reveladas a la vez; pujas abiertas: una puja "
            "cada uno por turno; sin subasta: cada jugador por turno toma una pieza y la juega",
        ),
        "choice.sealed": ("sealed bids", "pujas secretas"),
        "choice.open": ("open bids", "pujas abiertas"),
        "choice.no_auction": ("no auction", "sin subasta"),
        # ---------------------------------------------------------------- counters, figures
        "bcb.left": (
            "{bridges} {bridges:bridge|bridges}, {castles} {castles:castle|castles} left",
            "le {bridges:queda|quedan} {bridges} {bridges:puente|puentes} y {castles} "
            "{castles:castillo|castillos}",
        ),
        "bcb.bridges_left": (
            "{n} {n:bridge|bridges} left",
            "le {n:queda|quedan} {n} {n:puente|puentes}",
        ),
        "bcb.castles_left": (
            "{n} {n:castle|castles} left",
            "le {n:queda|quedan} {n} {n:castillo|castillos}",
        ),
        # ---------------------------------------------------------------- bridges
        "bcb.bridge": (
            "You may build a bridge on the tile you placed or next to it ({n} left), or pass.",
            "Puedes construir un puente en la pieza colocada o a su lado (te quedan {n}), o pasa.",
        ),
        "open.bcb.bridge": ("Build a bridge", "Construir un puente"),
        "pass.bcb.bridge": ("No bridge", "Sin puente"),
        "facet.axis": ("direction", "dirección"),
        "facet.axis.NS": ("north–south", "norte–sur"),
        "facet.axis.WE": ("west–east", "oeste–este"),
        "bcb.bridge_built": (
            "{seat} builds a bridge at x {x}, y {y} ({axis}).",
            "{seat} construye un puente en x {x}, y {y} ({axis}).",
        ),
        "bcb.axis.NS": ("north–south", "norte–sur"),
        "bcb.axis.WE": ("west–east", "oeste–este"),
        "bcb.err.no_bridge": (
            "You cannot build a bridge there: a bridge goes straight across two field edges of "
            "the tile you placed or a tile next to it, each end on a road or an empty square.",
            "No puedes construir un puente ahí: un puente cruza en línea recta dos bordes de "
            "campo de la pieza colocada o de una vecina, cada extremo hacia un camino o un hueco.",
        ),
        "bcb.err.bridge_form": (
            "Name a bridge as x,y:NS or x,y:WE.",
            "Indica un puente como x,y:NS o x,y:WE.",
        ),
        "part.bridge_extra.one": (
            "1 bridge over its own road +1",
            "1 puente sobre su propio camino +1",
        ),
        "part.bridge_extra.many": (
            "{n} bridges over their own road +{n}",
            "{n} puentes sobre su propio camino +{n}",
        ),
        # ---------------------------------------------------------------- castles
        "bcb.castle": (
            "You completed a small city of your own: build a castle on it ({n} left), or score "
            "it now.",
            "Has completado una ciudad pequeña propia: construye un castillo en ella (te quedan "
            "{n}), o puntúala ahora.",
        ),
        "open.bcb.castle": ("Castle or score", "Castillo o puntuar"),
        "pass.bcb.castle": ("Score the city", "Puntuar la ciudad"),
        "opt.bcb.castle": ("Build a castle", "Construir un castillo"),
        "bcb.castle_built": (
            "{seat} builds a castle at x {x}, y {y}; the follower stands on it.",
            "{seat} construye un castillo en x {x}, y {y}; el seguidor se sube a él.",
        ),
        "bcb.castle_pick": (
            "Several features completed around your castle at x {x}, y {y}: which one does it "
            "score?",
            "Se han completado varias construcciones alrededor de tu castillo en x {x}, y {y}: "
            "¿cuál puntúa?",
        ),
        "open.bcb.castle_pick": ("Choose for the castle", "Elegir para el castillo"),
        "bcb.castle_pick.option": (
            "{kind}: {points} {points:point|points}",
            "{kind}: {points} {points:punto|puntos}",
        ),
        "bcb.kind.road": ("road", "camino"),
        "bcb.kind.city": ("city", "ciudad"),
        "bcb.kind.cloister": ("cloister", "claustro"),
        "bcb.kind.castle": ("castle", "castillo"),
        "score.castle": ("castle", "castillo"),
        "part.castle.road": (
            "first feature completed around it, a road: {points}",
            "primera construcción completada alrededor, un camino: {points}",
        ),
        "part.castle.city": (
            "first feature completed around it, a city: {points}",
            "primera construcción completada alrededor, una ciudad: {points}",
        ),
        "part.castle.cloister": (
            "first feature completed around it, a cloister: {points}",
            "primera construcción completada alrededor, un claustro: {points}",
        ),
        "part.castle.castle": (
            "first feature completed around it, a castle: {points}",
            "primera construcción completada alrededor, un castillo: {points}",
        ),
        "part.castle_unfinished": (
            "never completed: 0",
            "nunca completado: 0",
        ),
        "part.castles.one": ("1 castle +1", "1 castillo +1"),
        "part.castles.many": ("{n} castles +1 each", "{n} castillos +1 cada uno"),
        "bcb.err.castle": (
            "Answer 'bcb.castle build' or pass to score the city.",
            "Responde 'bcb.castle build' o pasa para puntuar la ciudad.",
        ),
        "bcb.err.castle_pick": (
            "Choose one of the features completed around your castle.",
            "Elige una de las construcciones completadas alrededor de tu castillo.",
        ),
        # ---------------------------------------------------------------- markets
        "bcb.market_opened": (
            "Market! {seat} reveals {n} tiles: {tiles}.",
            "¡Mercado! {seat} descubre {n} piezas: {tiles}.",
        ),
        "bcb.market_skipped": (
            "No market: fewer tiles are left than there are players.",
            "No hay mercado: quedan menos piezas que jugadores.",
        ),
        "bcb.offer": (
            "Market: choose a tile and make an opening bid (0 or more).",
            "Mercado: elige una pieza y haz una puja inicial (0 o más).",
        ),
        "open.bcb.offer": ("Choose a market tile", "Elegir pieza del mercado"),
        "bcb.tile": ("Tile {letter} ({tile})", "Pieza {letter} ({tile})"),
        "bcb.offered": (
            "{seat} chooses tile {tile} and opens the bidding at {price}.",
            "{seat} elige la pieza {tile} y abre la puja en {price}.",
        ),
        "bcb.sealed": (
            "Sealed bid for tile {tile}, opened by {chooser_seat} at {price}: bid more than "
            "{price}, or pass. You have {score} {score:point|points}.",
            "Puja secreta por la pieza {tile}, abierta por {chooser_seat} en {price}: puja más "
            "de {price}, o pasa. Tienes {score} {score:punto|puntos}.",
        ),
        "open.bcb.sealed": ("Bid", "Pujar"),
        "bcb.bid": (
            "Bid for tile {tile}: the highest bid is {price} ({leader_seat}); bid more, or pass. "
            "You have {score} {score:point|points}.",
            "Puja por la pieza {tile}: la puja más alta es {price} ({leader_seat}); puja más, o "
            "pasa. Tienes {score} {score:punto|puntos}.",
        ),
        "open.bcb.bid": ("Bid", "Pujar"),
        "bcb.bid.option": (
            "your bid (if you pay it: {score} − bid)",
            "tu puja (si la pagas: {score} − puja)",
        ),
        "bcb.bid_made": ("{seat} bids {price}.", "{seat} puja {price}."),
        "bcb.bid_passed": ("{seat} passes.", "{seat} pasa."),
        "bcb.bid_sealed": ("{seat}'s sealed bid: {price}.", "Puja secreta de {seat}: {price}."),
        "bcb.bid_sealed_pass": (
            "{seat}'s sealed bid: pass.",
            "Puja secreta de {seat}: pasa.",
        ),
        "bcb.deal": (
            "The highest bid for tile {tile} is {leader_seat}'s {price}: buy the tile (you pay "
            "{leader_seat} {price}) or sell it ({leader_seat} pays you {price})?",
            "La puja más alta por la pieza {tile} es la de {leader_seat}, {price}: ¿compras la "
            "pieza (pagas {price} a {leader_seat}) o la vendes ({leader_seat} te paga {price})?",
        ),
        "open.bcb.deal": ("Buy or sell", "Comprar o vender"),
        "opt.bcb.buy": (
            "Buy: pay {price} to {leader_seat}",
            "Comprar: pagas {price} a {leader_seat}",
        ),
        "opt.bcb.sell": (
            "Sell: {leader_seat} pays you {price}",
            "Vender: {leader_seat} te paga {price}",
        ),
        "bcb.bought": (
            "{seat} buys tile {tile} and pays {price} to {leader_seat}.",
            "{seat} compra la pieza {tile} y paga {price} a {leader_seat}.",
        ),
        "bcb.sold": (
            "{seat} sells tile {tile} to {leader_seat}, who pays {price}.",
            "{seat} vende la pieza {tile} a {leader_seat}, que paga {price}.",
        ),
        "bcb.bank": (
            "Nobody outbids {seat}: {seat} takes tile {tile} and pays {price} to the bank.",
            "Nadie supera a {seat}: {seat} se queda la pieza {tile} y paga {price} a la banca.",
        ),
        "bcb.free": (
            "{seat} takes the last tile, {tile}, for free.",
            "{seat} se lleva gratis la última pieza, {tile}.",
        ),
        "bcb.pick": (
            "Market: choose the tile you place now.",
            "Mercado: elige la pieza que colocas ahora.",
        ),
        "open.bcb.pick": ("Choose a market tile", "Elegir pieza del mercado"),
        "bcb.picked": ("{seat} takes tile {tile}.", "{seat} toma la pieza {tile}."),
        "bcb.hand": (
            "{seat} places the market tile {tile}.",
            "{seat} coloca la pieza del mercado {tile}.",
        ),
        "score.market": ("market", "mercado"),
        # the strip of the board picture
        "bcb.strip": ("Market", "Mercado"),
        "bcb.strip_hidden": (
            "Market: {n} tiles set aside face down",
            "Mercado: {n} piezas apartadas boca abajo",
        ),
        "bcb.strip_lot": (
            "on offer: tile {letter}, bid to beat {price} ({name})",
            "en subasta: pieza {letter}, puja a superar {price} ({name})",
        ),
        # a payment's line: the payer's points go down, the payee's up ({tile}: in words)
        "part.market_buy": (
            "the buyer pays the highest bidder for the tile ({tile}): {price}",
            "quien compra paga a quien más pujó por la pieza ({tile}): {price}",
        ),
        "part.market_sell": (
            "the highest bidder pays the seller for the tile ({tile}): {price}",
            "quien más pujó paga a quien vende por la pieza ({tile}): {price}",
        ),
        "part.market_bank": (
            "paid to the bank for the tile ({tile}): {price}",
            "pagado a la banca por la pieza ({tile}): {price}",
        ),
        "bcb.err.offer": (
            "Choose one of the market tiles still on offer, with a bid from 0 to {max}.",
            "Elige una de las piezas del mercado aún libres, con una puja de 0 a {max}.",
        ),
        "bcb.err.bid": (
            "Bid more than {price} (at most {max}), or pass.",
            "Puja más de {price} (como mucho {max}), o pasa.",
        ),
        "bcb.err.deal": ("Answer buy or sell.", "Responde comprar o vender."),
        "bcb.err.pick": (
            "Choose one of the market tiles still on offer.",
            "Elige una de las piezas del mercado aún libres.",
        ),
        "bcb.err.bridge_first": (
            "Build a bridge ('bcb.bridge x,y:NS') or pass first.",
            "Antes construye un puente ('bcb.bridge x,y:NS') o pasa.",
        ),
        "bcb.err.castle_first": (
            "Build a castle ('bcb.castle build') or pass to score the city first.",
            "Antes construye un castillo ('bcb.castle build') o pasa para puntuar la ciudad.",
        ),
        "bcb.err.castle_pick_first": (
            "Choose the feature your castle scores first.",
            "Antes elige la construcción que puntúa tu castillo.",
        ),
        "bcb.err.pick_first": (
            "Choose your market tile first.",
            "Antes elige tu pieza del mercado.",
        ),
        "bcb.err.market_first": (
            "The market comes first: answer its open choice.",
            "Primero el mercado: responde a su elección pendiente.",
        ),
    }
)
