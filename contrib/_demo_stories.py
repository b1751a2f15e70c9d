"""The demo's stories, written by hand: each about one of the demo's places, filed under one
topic, and told by its own words, hashtags, picture, quoted posts, link card and video, so that
the demo reads as a real site (``contrib.demo`` makes them through the service).

A story's picture is the one that shows what it is about: its place's (``{place}.webp``) or
its topic's (``{topic}.webp``); its link card has its topic's picture, its video its topic's
poster; its quotes are posts of its place's two accounts (``{place}news`` on socialA,
``{place}_voices`` on socialB, whose avatars the package ships too).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["PLACES", "POSTERS", "STORIES", "DemoStory", "Place"]


@dataclass(frozen=True, slots=True)
class Place:
    """A place of the demo: its name as titles write it, and what its picture shows."""

    name: str
    caption: str


#: The demo's places, by the key of their files (``porto.webp``, ``avatar-porto-news.webp``).
PLACES = {
    "porto": Place("Porto", "Boats waiting in the harbour fog under the bridge, Porto"),
    "kyoto": Place("Kyoto", "Evening sun over the hills and a pagoda, Kyoto"),
    "oaxaca": Place("Oaxaca", "Cacti on the hills outside Oaxaca at dusk"),
    "tromso": Place("Tromsø", "Northern lights over the fjord, Tromsø"),
    "marrakesh": Place("Marrakesh", "Snow on the Atlas behind the palms and walls of Marrakesh"),
    "tbilisi": Place("Tbilisi", "The old town's lights below the fortress, Tbilisi"),
    "valparaiso": Place("Valparaíso", "Sunset over the bay and the coloured houses of Valparaíso"),
    "hanoi": Place("Hanoi", "Rice terraces in the morning mist, north of Hanoi"),
}

#: The poster of a video of each topic that has videos: a singer at the microphone, and a
#: coast seen through a train window.
POSTERS = {"music": "poster-stage.webp", "travel": "poster-journey.webp"}


@dataclass(frozen=True, slots=True)
class DemoStory:
    """One story of the demo, as its author wrote it.

    ``picture`` says which picture shows it (its place's or its topic's) and ``caption`` what
    the picture shows there (by default, the place picture's own caption). ``news`` and
    ``voice`` are posts it quotes, ``link`` a linked page's title and description, ``video``
    a video's title, ``map`` a link to its place's map (an element of another kind). The
    hashtags are the topic's; the place's own is added to them.
    """

    author: str
    place: str
    topic: str
    title: str
    description: str
    hashtags: tuple[str, ...]
    text: tuple[str, ...]
    picture: Literal["place", "topic"] = "place"
    caption: str = ""
    news: str = ""
    voice: str = ""
    link: tuple[str, str] | None = None
    video: str = ""
    map: bool = False
    draft: bool = False
    private: bool = False
    featured: bool = False


STORIES = (
    DemoStory(
        author="alice",
        place="porto",
        topic="travel",
        title="A morning in the harbour fog of Porto",
        description="The harbour fog hides the bridge until ten; the boats of Porto wait it out.",
        hashtags=("river", "slowtravel"),
        text=(
            "Porto wakes up inside a cloud. From the quay at Ribeira you hear the boats before "
            "you see them, and the iron bridge appears one arch at a time.",
            "By ten the fog lifts off the Douro, the cafés put their chairs out and the rabelo "
            "boats take the first visitors upriver. #travel",
        ),
        news="Ferries on the river line run again from 10:00 after the morning fog. "
        "Expect short delays.",
        voice="Fog so thick on the Ribeira quay this morning that the gulls were walking.",
        link=("A slow guide to Porto", "Where to walk, sit and eat along the Douro."),
        video="Porto from the train window, along the Douro",
        map=True,
        featured=True,
    ),
    DemoStory(
        author="bruno",
        place="tromso",
        topic="science",
        title="Chasing the northern lights above Tromsø",
        description="What makes the aurora over Tromsø green, and why it dances on quiet nights.",
        hashtags=("aurora", "astronomy"),
        text=(
            "Tromsø sits under the auroral oval, the ring where particles of the solar wind "
            "meet the upper air. Oxygen a hundred kilometres up glows green when they hit it.",
            "The best nights are clear, cold and dark, and the best forecast is the sun's own: "
            "a burst on its face reaches the fjord two days later. #science",
        ),
        news="Clear skies tonight over Tromsø: the best chance this month to see the aurora.",
        voice="Three hours on the ice by the fjord, and then the whole sky moved. Worth it.",
        link=("Aurora: what we know so far", "From solar wind to green light, in five steps."),
        featured=True,
    ),
    DemoStory(
        author="chloe",
        place="hanoi",
        topic="food",
        title="Egg coffee and early tea in Hanoi",
        description="Hanoi's morning starts with whipped egg coffee and green tea on tiny stools.",
        hashtags=("coffee", "tea"),
        text=(
            "In Hanoi's Old Quarter the coffee comes with a cap of egg yolk whipped with "
            "sugar, thick enough to stand a spoon in. It was invented when milk was scarce.",
            "Next door, green tea is poured all morning for a few thousand dong, on stools "
            "so low your knees meet your chin. #food",
        ),
        picture="topic",
        caption="Cups of egg coffee and green tea on a café table in the Old Quarter, Hanoi",
        news="The Old Quarter's weekend walking streets open again from Friday evening.",
        voice="Egg coffee at 7, green tea at 8, noodles at 9. The Hanoi breakfast plan.",
        link=("Where to eat in Hanoi", "Street stalls, noodle shops and the coffee houses."),
    ),
    DemoStory(
        author="alice",
        place="valparaiso",
        topic="travel",
        title="Riding the funiculars of Valparaíso",
        description="Valparaíso climbs its hills in wooden cars more than a century old.",
        hashtags=("walking", "coast"),
        text=(
            "Valparaíso is a port at the foot of forty-two hills, and the way up is a "
            "funicular: a wooden car on a steep rail, pulled by a cable, for a few coins.",
            "From the top of Cerro Concepción the whole bay opens up, the cranes below and "
            "the coloured houses stacked all around. #travel",
        ),
        news="The Reina Victoria funicular reopens on Monday after its yearly overhaul.",
        voice="Took the funicular up and walked down. My knees disagree with my camera.",
        link=("A slow guide to Valparaíso", "Which hills to climb, and which stairs to take."),
        video="Valparaíso from the train window, along the bay",
    ),
    DemoStory(
        author="bruno",
        place="oaxaca",
        topic="science",
        title="Counting stars over the hills of Oaxaca",
        description="Far from the city lights, the dry hills of Oaxaca show the Milky Way.",
        hashtags=("astronomy",),
        text=(
            "An hour out of Oaxaca the air is dry and the sky is dark: on a moonless night "
            "you can count more than two thousand stars without a telescope.",
            "Local schools now measure the sky's darkness each month, to keep the new street "
            "lights pointing down. #science",
        ),
        news="The Oaxaca star party is on Saturday at the old hacienda. Bring warm clothes.",
        voice="Saw the Milky Way from the roof for the first time since I was a kid.",
        link=("Dark skies: what we know so far", "How light at night hides the stars."),
    ),
    DemoStory(
        author="chloe",
        place="tbilisi",
        topic="music",
        title="Polyphony in a Tbilisi courtyard",
        description="Three voices, no instruments: an evening of Georgian song in Tbilisi.",
        hashtags=("choir", "folk"),
        text=(
            "In a courtyard of old Tbilisi, three men sing a supra song in three voices that "
            "never quite agree, and that is the point: the chords rub, and the air rings.",
            "UNESCO lists Georgian polyphony as a treasure; the neighbours just open their "
            "windows. #music",
        ),
        news="Tonight: free concert of the city choirs in the old town of Tbilisi from 21:00.",
        voice="A table song in a Tbilisi courtyard, and the whole street stopped to listen.",
        link=("The venues of Tbilisi, from cellars to stages", "Where the choirs sing."),
        video="A night of polyphony in Tbilisi, live",
    ),
    DemoStory(
        author="alice",
        place="porto",
        topic="sport",
        title="Rowing the Douro at dawn in Porto",
        description="Porto's rowing club is on the river before the first ferry.",
        hashtags=("rowing",),
        text=(
            "At six the Douro is flat and the rowing club of Porto already has four boats "
            "out, gliding under the bridges while the city sleeps.",
            "The coach follows in a small launch, shouting through the fog. #sport",
        ),
        news="The Douro regatta is on Sunday: the river line ferries stop from 8 to 12.",
        voice="Out on the river at six with the club. Porto is quiet from the water.",
        link=("The season ahead in Porto", "Regattas, derbies and the long races."),
    ),
    DemoStory(
        author="bruno",
        place="kyoto",
        topic="science",
        title="The moss gardens of Kyoto, up close",
        description="A hundred kinds of moss grow in one Kyoto garden; a botanist explains why.",
        hashtags=("moss", "lichen"),
        text=(
            "Kyoto's basin is humid and shaded by hills, and its temple gardens have been "
            "left to moss for centuries. One garden counts more than a hundred kinds.",
            "Moss and lichen drink straight from the air, so they also tell how clean it is: "
            "the lichen is coming back. #science",
        ),
        news="The moss garden of Saihō-ji opens to visitors by postcard request this month.",
        voice="Rain in Kyoto, which means the moss is at its greenest. No complaints.",
        link=("Moss: what we know so far", "Plants that drink from the air."),
    ),
    DemoStory(
        author="chloe",
        place="oaxaca",
        topic="food",
        title="Seven moles in one week in Oaxaca",
        description="Black, red, yellow and four more: eating the moles of Oaxaca one by one.",
        hashtags=("chocolate", "markets"),
        text=(
            "Oaxaca is called the land of seven moles, and the market of 20 de Noviembre "
            "sells the paste of each by the kilo, black with chocolate, red with chillies.",
            "We ate one a day. The black mole won, by a spoon. #food",
        ),
        picture="topic",
        caption="Bowls of black, red and yellow mole on a market table, Oaxaca",
        news="The old market in Oaxaca reopens on Saturday after two years of works. "
        "Stalls open at 7.",
        voice="Mole negro for breakfast is a perfectly normal thing to do in Oaxaca.",
        link=("Where to eat in Oaxaca", "Markets, comedores and the mole makers."),
    ),
    DemoStory(
        author="alice",
        place="marrakesh",
        topic="travel",
        title="From Marrakesh to the snow of the Atlas",
        description="Two hours from the palms of Marrakesh, there is snow on the Atlas.",
        hashtags=("mountains", "winter"),
        text=(
            "From the walls of Marrakesh the High Atlas looks painted on the sky. The road "
            "south climbs through olive groves and Berber villages to the snow line.",
            "At Imlil we had mint tea by a fire, and in the evening the palms again. #travel",
        ),
        news="The road over the Tizi n'Tichka pass from Marrakesh is open again after snow.",
        voice="Palms at breakfast, snow at lunch. The Atlas from Marrakesh never gets old.",
        link=("A slow guide to Marrakesh", "The medina, the gardens and the mountain roads."),
        video="The Atlas from the train window, south of Marrakesh",
        featured=True,
    ),
    DemoStory(
        author="bruno",
        place="valparaiso",
        topic="science",
        title="Why the ground shakes under Valparaíso",
        description="Valparaíso sits above a plate boundary; a seismologist reads its quakes.",
        hashtags=("earthquakes", "geology"),
        text=(
            "Off Valparaíso the Nazca plate dives under South America by seven centimetres a "
            "year, and the city feels small quakes every week.",
            "Its houses are built for it: light walls, wooden frames, and a siren drill each "
            "spring. #science",
        ),
        news="A magnitude 4.1 quake was felt in Valparaíso at 03:12. No damage reported.",
        voice="Woke up to the bed shaking in Valparaíso. The cat did not even look up.",
        link=("Earthquakes: what we know so far", "Plates, faults and early warnings."),
    ),
    DemoStory(
        author="chloe",
        place="kyoto",
        topic="music",
        title="Jazz kissa evenings in Kyoto",
        description="In Kyoto's jazz cafés you sit, order a coffee and listen to whole records.",
        hashtags=("jazz", "vinyl"),
        text=(
            "A jazz kissa is a café for listening: a wall of records, a pair of huge "
            "speakers, and a rule against talking. Kyoto has kept a dozen of them.",
            "The owner picks the records; you get a whole side of an album. #music",
        ),
        picture="topic",
        caption="Lights over a crowded jazz night on Kiyamachi street, Kyoto",
        news="Kyoto's jazz week starts on Thursday, with free concerts along the Kamo river.",
        voice="Two hours, one coffee and all of Kind of Blue in a Kyoto kissa.",
        link=("The venues of Kyoto, from cellars to stages", "Where to hear jazz in Kyoto."),
    ),
    DemoStory(
        author="alice",
        place="tromso",
        topic="sport",
        title="The midnight sun marathon in Tromsø",
        description="A marathon that starts at night in Tromsø, and never gets dark.",
        hashtags=("running", "marathon"),
        text=(
            "In June the sun does not set over Tromsø, so the city runs its marathon at "
            "night: the start is at 20:30 and the last runners finish in broad daylight.",
            "The course crosses the bridge twice, with the fjord on both sides. #sport",
        ),
        picture="topic",
        caption="The lanes of the stadium track where the marathon ends, Tromsø",
        news="Roads on the Tromsø bridge close from 20:00 for the midnight sun marathon.",
        voice="Finished the Tromsø marathon at 1 in the morning, in sunshine.",
        link=("The season ahead in Tromsø", "Marathons, ski races and the fjord swims."),
    ),
    DemoStory(
        author="bruno",
        place="porto",
        topic="science",
        title="Where Porto's harbour fog comes from",
        description="Cold sea, warm river: the physics of the fog that fills Porto's harbour.",
        hashtags=("fog", "weather", "ocean"),
        text=(
            "Porto's fog is made at sea: warm air crosses the cold Atlantic current, cools, "
            "and its water condenses into a cloud that rolls up the Douro.",
            "The sun burns it off from the top down, which is why the bridge's arch shows "
            "before its feet. #science",
        ),
        news="Fog warning for the Porto harbour until 11:00. Ferries run with delays.",
        voice="Porto's fog has moods. Today's is a heavy one.",
        link=("Fog: what we know so far", "How cold water and warm air make a cloud."),
    ),
    DemoStory(
        author="chloe",
        place="marrakesh",
        topic="food",
        title="Mint tea and the spice souks of Marrakesh",
        description="Marrakesh pours its mint tea from high up, between the spice stalls.",
        hashtags=("tea", "spices", "markets"),
        text=(
            "In the souks of Marrakesh every deal starts with mint tea, poured from high up "
            "so that it foams, three glasses each, sweeter each time.",
            "Around it, cones of cumin, paprika and ras el hanout, which means the head of "
            "the shop: its best blend. #food",
        ),
        picture="topic",
        caption="Bowls of spices and glasses of mint tea in a souk, Marrakesh",
        news="The spice souk of Marrakesh is open late all week for the festival.",
        voice="Third glass of mint tea in Marrakesh and I have bought a carpet.",
        link=("Where to eat in Marrakesh", "Tagines, spices and the night market."),
        featured=True,
    ),
    DemoStory(
        author="alice",
        place="hanoi",
        topic="travel",
        title="Rice terraces north of Hanoi",
        description="A night bus from Hanoi to the terraces of the north, in the morning mist.",
        hashtags=("walking", "mountains"),
        text=(
            "A night bus from Hanoi climbs to the hills of the north, where rice terraces "
            "step down whole valleys, still green in the morning mist.",
            "We walked village to village with a guide who laughed in three languages. #travel",
        ),
        news="The night buses from Hanoi to the northern hills run every evening at 22:00.",
        voice="Woke up in the clouds above the terraces. Hanoi feels very far away.",
        link=("A slow guide to Hanoi", "The Old Quarter, the lakes and the roads north."),
        map=True,
    ),
    DemoStory(
        author="bruno",
        place="marrakesh",
        topic="science",
        title="The shrinking snow of the Atlas above Marrakesh",
        description="The snow that waters Marrakesh is thinner every winter; what that means.",
        hashtags=("glaciers", "weather"),
        text=(
            "Marrakesh drinks from the Atlas: snow on the peaks melts in spring and fills the "
            "canals that water the city's gardens and the olive groves.",
            "Satellites show the snow now lasts three weeks less than in the 1980s. #science",
        ),
        news="Snow fell on the Atlas last night: visible from Marrakesh all day.",
        voice="The Atlas is white again this morning. Marrakesh's rooftops are full.",
        link=("Snow: what we know so far", "How mountains store water for a dry city."),
    ),
    DemoStory(
        author="chloe",
        place="valparaiso",
        topic="music",
        title="Street pianos on the hills of Valparaíso",
        description="Valparaíso leaves pianos on its stairways, and people play them.",
        hashtags=("concerts",),
        text=(
            "Every summer Valparaíso puts old pianos on its stairways and squares, painted "
            "as brightly as the houses around them. Anyone may play.",
            "We heard a cueca, a Chopin nocturne and a sailor's song in one afternoon. #music",
        ),
        news="Tonight: free concert on Plaza Sotomayor in Valparaíso from 21:00.",
        voice="A kid playing Chopin on a stair piano in Valparaíso. Best concert this year.",
        link=("The venues of Valparaíso, from cellars to stages", "Music on the hills."),
    ),
    DemoStory(
        author="alice",
        place="kyoto",
        topic="sport",
        title="Cycling the river paths of Kyoto",
        description="Kyoto is flat along its rivers: the best way around it is by bike.",
        hashtags=("cycling",),
        text=(
            "Kyoto's temples are in the hills, but the city between them is flat, and the "
            "paths along the Kamo river run north to south for twenty kilometres.",
            "We rented bikes at seven and were at the first temple before the buses. #sport",
        ),
        news="The Kamo river path in Kyoto is closed north of Demachiyanagi until Friday.",
        voice="Cycled the whole Kamo river path this morning. Kyoto by bike is a dream.",
        link=("The season ahead in Kyoto", "Bike routes, races and the marathon."),
    ),
    DemoStory(
        author="bruno",
        place="hanoi",
        topic="science",
        title="The monsoon and the rice of Hanoi",
        description="How the summer monsoon sets the calendar of the rice around Hanoi.",
        hashtags=("monsoon", "weather"),
        text=(
            "Around Hanoi the rice follows the monsoon: planted when the rains come in May, "
            "harvested in the dry weeks of autumn.",
            "A late monsoon now moves the whole calendar, and the farmers watch the sea's "
            "temperature as closely as the sky. #science",
        ),
        news="Heavy rain expected in Hanoi from tonight: the monsoon has arrived.",
        voice="First monsoon rain on Hanoi today. The streets are rivers.",
        link=("Monsoons: what we know so far", "Why the rains come, and when."),
        draft=True,
    ),
    DemoStory(
        author="chloe",
        place="porto",
        topic="food",
        title="The fish grills of Porto's riverside",
        description="Sardines on the grill, in the street, in Porto: an evening on the river.",
        hashtags=("fish",),
        text=(
            "Porto grills its sardines outside, on iron grills at the door of each "
            "restaurant in Matosinhos, and the smoke drifts over the harbour.",
            "Ask for the daily catch, and then ask where the cook buys the fish. #food",
        ),
        picture="topic",
        caption="Bowls of grilled sardines and salad on a riverside table, Porto",
        news="The fish market of Porto opens early on Saturday, from 5:00.",
        voice="Sardines, bread, salad, a glass. Porto knows what a dinner is.",
        link=("Where to eat in Porto", "Grills, tascas and the fish market."),
    ),
    DemoStory(
        author="alice",
        place="tbilisi",
        topic="travel",
        title="A night walk through old Tbilisi",
        description="Old Tbilisi by night: balconies, sulphur baths and the fortress lit above.",
        hashtags=("oldtown", "walking"),
        text=(
            "Old Tbilisi is best after dark, when the carved balconies are lit from inside "
            "and the fortress glows on its ridge.",
            "We started at the sulphur baths and ended on the bridge of peace. #travel",
        ),
        news="The cable car to the fortress in Tbilisi runs until midnight this summer.",
        voice="Tbilisi at night from the fortress. Every window a small lamp.",
        link=("A slow guide to Tbilisi", "The old town, the baths and the hills."),
        map=True,
    ),
    DemoStory(
        author="bruno",
        place="tbilisi",
        topic="science",
        title="The warm springs under Tbilisi",
        description="Tbilisi is built on hot springs; a geologist follows their water down.",
        hashtags=("springs", "geology"),
        text=(
            "Tbilisi means warm place: hot springs rise under its old town at forty degrees, "
            "smelling of sulphur, and have fed its domed baths for centuries.",
            "The water fell as rain on the Caucasus thousands of years ago. #science",
        ),
        news="The sulphur baths of Tbilisi open an hour earlier from Monday.",
        voice="Forty-degree water from under the city. Tbilisi's baths are the best cure.",
        link=("Springs: what we know so far", "Where hot water comes from."),
    ),
    DemoStory(
        author="chloe",
        place="oaxaca",
        topic="music",
        title="The brass bands of Oaxaca",
        description="Every village around Oaxaca has its brass band, and every band a feast.",
        hashtags=("brass", "festival"),
        text=(
            "Around Oaxaca every village has a brass band, and children learn the trumpet "
            "before they can read. At the Guelaguetza they all march into town.",
            "By evening the square was full of music, three bands at once. #music",
        ),
        picture="topic",
        caption="Lights over the crowd at the Guelaguetza, Oaxaca",
        news="The Guelaguetza parade crosses the centre of Oaxaca on Saturday from 17:00.",
        voice="Three brass bands in one square in Oaxaca, all playing different songs.",
        link=("The venues of Oaxaca, from cellars to stages", "Bands, feasts and cantinas."),
        video="A night of brass bands in Oaxaca, live",
    ),
    DemoStory(
        author="alice",
        place="valparaiso",
        topic="sport",
        title="Surf season on the coast of Valparaíso",
        description="Cold water, long waves: the surfers of Valparaíso's coast.",
        hashtags=("surfing",),
        text=(
            "North of Valparaíso the Pacific brings long, cold waves, and the surf schools "
            "hand out thick wetsuits all year.",
            "The water is fifteen degrees in summer. Nobody stays in long. #sport",
        ),
        news="Big swell on the Valparaíso coast this weekend: beaches flagged red.",
        voice="Three waves, two falls, one frozen surfer. Valparaíso, you win.",
        link=("The season ahead in Valparaíso", "Surf contests and the sailing races."),
    ),
    DemoStory(
        author="bruno",
        place="tromso",
        topic="science",
        title="Tromsø's glacier, forty years on",
        description="Old photographs show how far the glacier near Tromsø has drawn back.",
        hashtags=("glaciers",),
        text=(
            "A glaciologist from Tromsø climbs each summer to the same rock and takes the "
            "same photograph: the ice was at her feet in 1985.",
            "It is now a kilometre up the valley. #science",
        ),
        news="The glacier trail near Tromsø opens for the summer on Saturday.",
        voice="Walked to the glacier above Tromsø. It was further than the map said.",
        link=("Glaciers: what we know so far", "How ice remembers the climate."),
        private=True,
    ),
    DemoStory(
        author="chloe",
        place="kyoto",
        topic="food",
        title="A first tea ceremony in Kyoto",
        description="Kyoto's tea ceremony, for a beginner: bowls, bows and bitter matcha.",
        hashtags=("tea",),
        text=(
            "In a tea house in Kyoto the host whisks matcha for each guest in turn, and "
            "each bowl is turned twice before it is drunk.",
            "Forty minutes for one bowl of tea, and not a second too long. #food",
        ),
        picture="topic",
        caption="Bowls of matcha and sweets for the tea ceremony, Kyoto",
        news="The tea houses of Kyoto's Gion district open to visitors in spring.",
        voice="My first tea ceremony in Kyoto. I bowed at the wrong time, twice.",
        link=("Where to eat in Kyoto", "Tea houses, tofu and the Nishiki market."),
        featured=True,
    ),
    DemoStory(
        author="alice",
        place="tromso",
        topic="travel",
        title="By ferry up the coast to Tromsø",
        description="Three days up the Norwegian coast to Tromsø, by the coastal ferry.",
        hashtags=("ferries", "coast", "winter"),
        text=(
            "The coastal ferry stops at every harbour from Bergen to Tromsø, day and night, "
            "unloading post, fish and passengers.",
            "On the third evening the mountains were white and the lights began. #travel",
        ),
        news="The coastal ferry arrives in Tromsø at 14:30 today, an hour late after a storm.",
        voice="Docked in Tromsø after three days at sea. The Arctic is very bright.",
        link=("A slow guide to Tromsø", "The harbour, the bridge and the islands."),
        map=True,
    ),
    DemoStory(
        author="bruno",
        place="valparaiso",
        topic="science",
        title="Pelicans and the cold current off Valparaíso",
        description="Why a cold current makes the bay of Valparaíso rich in fish and birds.",
        hashtags=("birds", "ocean"),
        text=(
            "The Humboldt current brings cold, rich water up the coast of Chile, and the "
            "bay of Valparaíso is full of anchovies, sea lions and pelicans.",
            "When the current weakens in an El Niño year, the birds go hungry. #science",
        ),
        news="Sea lions on the Valparaíso pier again: please keep two metres away.",
        voice="Counted forty pelicans on the fishing boats in Valparaíso before noon.",
        link=("Oceans: what we know so far", "Currents that feed a coast."),
    ),
    DemoStory(
        author="chloe",
        place="marrakesh",
        topic="music",
        title="Gnawa nights in Marrakesh",
        description="Iron castanets and a bass lute: the trance music of Marrakesh's squares.",
        hashtags=("gnawa", "festival"),
        text=(
            "After dark on Jemaa el-Fna in Marrakesh, the Gnawa musicians play the guembri, "
            "a three-string bass lute, over the clatter of iron castanets.",
            "Songs last an hour, and the circle around them keeps growing. #music",
        ),
        picture="topic",
        caption="Lights over the crowd at a Gnawa night on Jemaa el-Fna, Marrakesh",
        news="Tonight: Gnawa concert on Jemaa el-Fna in Marrakesh from 21:00.",
        voice="The Gnawa circle on the square in Marrakesh, at midnight. Hypnotic.",
        link=("The venues of Marrakesh, from riads to squares", "Where to hear Gnawa."),
        video="A night of Gnawa in Marrakesh, live",
    ),
    DemoStory(
        author="alice",
        place="porto",
        topic="sport",
        title="Match day in Porto",
        description="The city turns blue and white on match day in Porto.",
        hashtags=("football",),
        text=(
            "On match day Porto turns blue and white from the morning, and the metro to the "
            "stadium is one long song.",
            "Nobody in the queue agreed on anything except the coffee. #sport",
        ),
        news="Extra metro trains to the Porto stadium from 18:00 tonight.",
        voice="Porto on match day: every café a stadium.",
        link=("The season ahead in Porto", "The derbies and the cup."),
        draft=True,
    ),
    DemoStory(
        author="bruno",
        place="kyoto",
        topic="sport",
        title="The Kyoto marathon, from the back of the pack",
        description="A science writer runs the Kyoto marathon, slowly, past seven temples.",
        hashtags=("running", "marathon"),
        text=(
            "The Kyoto marathon passes seven world heritage sites, and at my pace I had time "
            "to read the signs at each one.",
            "Forty-two kilometres, five hours, one blister. #sport",
        ),
        picture="topic",
        caption="The lanes of the stadium track at the finish of the marathon, Kyoto",
        news="Roads in central Kyoto close from 8:00 on Sunday for the marathon.",
        voice="Cheered the last runners of the Kyoto marathon. They were the happiest.",
        link=("The season ahead in Kyoto", "Marathons and the ekiden relays."),
    ),
    DemoStory(
        author="chloe",
        place="tbilisi",
        topic="food",
        title="Khachapuri and wine in Tbilisi",
        description="Cheese bread shaped like a boat, and amber wine from a clay jar, in Tbilisi.",
        hashtags=("bread", "cheese", "wine"),
        text=(
            "In Tbilisi khachapuri comes shaped like a boat, full of melted cheese with an "
            "egg and butter stirred in at the table.",
            "With it, amber wine made in clay jars buried in the ground, as it has been for "
            "eight thousand years. #food",
        ),
        picture="topic",
        caption="Bowls of cheese bread and glasses of amber wine on a table, Tbilisi",
        news="Tbilisi's new wine festival fills the old town on Saturday and Sunday.",
        voice="One khachapuri for four people in Tbilisi was still too much. Delicious.",
        link=("Where to eat in Tbilisi", "Bakeries, wine bars and the supra."),
    ),
    DemoStory(
        author="alice",
        place="oaxaca",
        topic="travel",
        title="Walking the desert hills outside Oaxaca",
        description="Cacti, dry riverbeds and a hill village: a day's walk from Oaxaca.",
        hashtags=("desert", "walking"),
        text=(
            "An hour's drive from Oaxaca the valley turns to desert, with organ cacti taller "
            "than a house and riverbeds that fill only in summer.",
            "Locals say the best view is from the old water tower. They were right. #travel",
        ),
        news="Trails in the hills outside Oaxaca close at 17:00 this month: fire risk.",
        voice="Desert hills, a hundred kinds of cactus and one lost hat. Oaxaca, thank you.",
        link=("A slow guide to Oaxaca", "The valleys, the villages and the ruins."),
        map=True,
    ),
    DemoStory(
        author="bruno",
        place="oaxaca",
        topic="science",
        title="The comet seen from Oaxaca",
        description="A comet crossed the sky over Oaxaca this month; how to see it and why.",
        hashtags=("comets", "astronomy"),
        text=(
            "From the observatory in the hills above Oaxaca the comet showed a tail two moons "
            "long, pointing away from the sun as every comet's does.",
            "It is made of ice and dust older than the Earth, and will be back in 6,000 "
            "years. #science",
        ),
        picture="topic",
        caption="The comet over the observatory's dome in the hills of Oaxaca",
        news="Clear skies tonight over Oaxaca: the best chance this month to see the comet.",
        voice="The comet from my roof in Oaxaca, with the naked eye. Unbelievable.",
        link=("Comets: what we know so far", "Dirty snowballs from the edge of the sky."),
        featured=True,
    ),
    DemoStory(
        author="chloe",
        place="hanoi",
        topic="music",
        title="Ca trù, the old songs of Hanoi",
        description="A singer, a lute and a drum: the old sung poetry of Hanoi, still alive.",
        hashtags=("folk",),
        text=(
            "Ca trù is sung poetry from the north of Vietnam: a woman sings and keeps time on "
            "a wooden block, a lute answers, and a listener beats a drum to praise her.",
            "In Hanoi a few old houses keep it going three nights a week. #music",
        ),
        picture="topic",
        caption="Lights over the small stage of a ca trù house in the Old Quarter, Hanoi",
        news="Ca trù evenings in Hanoi's Old Quarter return on Wednesdays and Fridays.",
        voice="Heard ca trù in Hanoi tonight. I didn't understand a word and I cried.",
        link=("The venues of Hanoi, from cellars to stages", "Ca trù, jazz and water puppets."),
    ),
    DemoStory(
        author="alice",
        place="marrakesh",
        topic="sport",
        title="The Marrakesh marathon, under the palms",
        description="Flat, fast and framed by the Atlas: running the Marrakesh marathon.",
        hashtags=("running", "marathon"),
        text=(
            "The Marrakesh marathon is run in January, when the air is cool, on a flat loop "
            "through the palm groves with the snowy Atlas behind.",
            "The finish is by the city walls, and there is mint tea for everyone. #sport",
        ),
        news="Roads around the Marrakesh palm grove close on Sunday morning for the marathon.",
        voice="Ran Marrakesh with the Atlas in view the whole way. A beautiful race.",
        link=("The season ahead in Marrakesh", "Races in the palms and the mountains."),
    ),
    DemoStory(
        author="bruno",
        place="porto",
        topic="science",
        title="The tides at the mouth of the Douro in Porto",
        description="Where the Douro meets the sea at Porto, the tide runs up the river.",
        hashtags=("tides", "ocean"),
        text=(
            "At Porto the Atlantic's tide pushes up the Douro twice a day, and the river "
            "rises and falls by three metres at the quays.",
            "A sand bar at the mouth moves with every storm. #science",
        ),
        news="Spring tide in Porto tonight: the lower quay of Ribeira may flood at 22:00.",
        voice="The river in Porto ran backwards this morning. Tides are strange.",
        link=("Tides: what we know so far", "The moon, the sea and the rivers."),
        private=True,
    ),
    DemoStory(
        author="chloe",
        place="valparaiso",
        topic="food",
        title="Empanadas and sea air in Valparaíso",
        description="Seafood empanadas by the harbour in Valparaíso, fried to order.",
        hashtags=("streetfood", "fish"),
        text=(
            "Valparaíso's empanadas are filled with seafood, shrimps and cheese or clams, "
            "and fried at the counter while you wait by the harbour.",
            "Eat them on the wall above the port, watching the cranes. #food",
        ),
        picture="topic",
        caption="Bowls of seafood empanadas on a harbour stall, Valparaíso",
        news="The fishermen's market of Valparaíso opens on Sunday from 6:00.",
        voice="Two shrimp empanadas on the wall above the port of Valparaíso. Perfect.",
        link=("Where to eat in Valparaíso", "Empanadas, fish and the hill cafés."),
    ),
    DemoStory(
        author="alice",
        place="kyoto",
        topic="travel",
        title="Three slow days in Kyoto",
        description="Kyoto on foot and by train: temples at dawn, and long evenings.",
        hashtags=("trains", "slowtravel"),
        text=(
            "We gave Kyoto three days and one rule: one temple a morning, then walk wherever "
            "the streets went.",
            "The train out, along the coast, was the slowest and the best part. #travel",
        ),
        news="Extra trains from Kyoto station this weekend for the autumn leaves.",
        voice="Three days in Kyoto, and we saw twelve temples and a hundred cats.",
        link=("A slow guide to Kyoto", "Temples, gardens and the old streets."),
        video="Kyoto from the train window, to the coast",
    ),
    DemoStory(
        author="bruno",
        place="tromso",
        topic="sport",
        title="Skiing to work in Tromsø",
        description="In Tromsø the ski trails are lit all winter, and people ski to work.",
        hashtags=("skiing",),
        text=(
            "Tromsø lights its ski trails through the polar night, so from November to "
            "March half the island skis to work in the dark.",
            "The trail from my flat to the university is four kilometres. #sport",
        ),
        news="The lit ski trails of Tromsø are open from today: the snow has come.",
        voice="Skied to work in Tromsø in the dark, under a green sky.",
        link=("The season ahead in Tromsø", "Ski races and the polar night cup."),
    ),
    DemoStory(
        author="chloe",
        place="porto",
        topic="music",
        title="Fado after dark in Porto",
        description="A singer, two guitars and a dark room: a night of fado in Porto.",
        hashtags=("fado",),
        text=(
            "In Porto fado is sung in small rooms after dinner: the lights go down, the "
            "Portuguese guitar starts, and nobody speaks until the last note.",
            "The singer told us fado is the song of the sea and of those who wait. #music",
        ),
        picture="topic",
        caption="Lights over the room at a fado night by the river, Porto",
        news="Fado evenings in Porto's Ribeira houses every night from 21:30.",
        voice="Fado in Porto tonight. The whole room held its breath.",
        link=("The venues of Porto, from cellars to stages", "Fado houses and concert halls."),
        video="A night of fado in Porto, live",
        featured=True,
    ),
    DemoStory(
        author="alice",
        place="hanoi",
        topic="sport",
        title="Morning runs around Hoan Kiem Lake, Hanoi",
        description="At five in the morning, half of Hanoi is running around its lake.",
        hashtags=("running",),
        text=(
            "Before sunrise Hoan Kiem Lake in the middle of Hanoi fills with runners, "
            "walkers, dancers and badminton players.",
            "One lap is under two kilometres; the regulars do ten. #sport",
        ),
        picture="topic",
        caption="The lanes of the city track where Hanoi's club runs on rainy mornings",
        news="The streets around Hoan Kiem Lake in Hanoi are car-free at weekends.",
        voice="5am at the lake in Hanoi and I am the slowest person here.",
        link=("The season ahead in Hanoi", "The city races and the lake runs."),
    ),
    DemoStory(
        author="bruno",
        place="tbilisi",
        topic="sport",
        title="Rugby fever in Tbilisi",
        description="Tbilisi fills its stadium for rugby; a country falls for a game.",
        hashtags=("rugby",),
        text=(
            "Georgia took up rugby late and plays it with passion: in Tbilisi a test match "
            "fills the stadium and every bar around it.",
            "The old wrestling clubs sent their strongest to the scrum. #sport",
        ),
        news="Tbilisi hosts the rugby test match on Saturday: extra metro trains from 16:00.",
        voice="Tbilisi sang the anthem so loud I felt it in my chest.",
        link=("The season ahead in Tbilisi", "Rugby, wrestling and the football cup."),
        draft=True,
    ),
    DemoStory(
        author="chloe",
        place="tromso",
        topic="food",
        title="Stockfish and cod in Tromsø",
        description="Fish dried on racks in the wind, and a cod soup in a Tromsø harbour café.",
        hashtags=("fish",),
        text=(
            "Around Tromsø cod hangs on wooden racks all spring, drying in the cold wind into "
            "stockfish that keeps for years.",
            "In a harbour café we ate it soaked and baked, and a cod soup after. #food",
        ),
        picture="topic",
        caption="Bowls of cod soup in a harbour café, Tromsø",
        news="The Tromsø fish market is open on the harbour every Saturday until noon.",
        voice="Cod soup in Tromsø after a day in the snow. Nothing better.",
        link=("Where to eat in Tromsø", "Fish, reindeer and the harbour cafés."),
    ),
    DemoStory(
        author="alice",
        place="valparaiso",
        topic="travel",
        title="Valparaíso's murals, street by street",
        description="Every wall of Valparaíso's hills is painted; a walk from mural to mural.",
        hashtags=("walking", "oldtown"),
        text=(
            "Valparaíso lets its painters have the walls, and the hills above the port are "
            "covered in murals, stair by stair.",
            "We followed them uphill until the bay was below us. #travel",
        ),
        news="Free mural walks in Valparaíso every Saturday at 10:00 from Plaza Sotomayor.",
        voice="Every staircase in Valparaíso is a gallery.",
        link=("A slow guide to Valparaíso", "The hills, the stairs and the murals."),
        map=True,
        draft=True,
    ),
    DemoStory(
        author="chloe",
        place="hanoi",
        topic="food",
        title="Pho on a street corner in Hanoi",
        description="Hanoi's pho is breakfast: a clear broth, rice noodles and beef, at dawn.",
        hashtags=("noodles", "streetfood"),
        text=(
            "In Hanoi pho is eaten at dawn, on the pavement: a broth simmered all night, "
            "flat rice noodles, thin beef, and herbs to add yourself.",
            "The best stalls sell out by nine and close. #food",
        ),
        picture="topic",
        caption="Bowls of pho and herbs on a street stall, Hanoi",
        news="Hanoi's street food market on Tong Dan street opens on Friday evening.",
        voice="Pho at 6am on a Hanoi pavement. I will dream of this broth.",
        link=("Where to eat in Hanoi", "Pho, bun cha and the street stalls."),
    ),
    DemoStory(
        author="chloe",
        place="marrakesh",
        topic="travel",
        title="The train from Marrakesh to the coast",
        description="Four hours by train from Marrakesh to the Atlantic, past the desert.",
        hashtags=("trains", "coast", "desert"),
        text=(
            "The train from Marrakesh runs north through the desert plains to the Atlantic "
            "coast at Casablanca, past villages of red earth.",
            "We took the first train out and saw the sea by noon. #travel",
        ),
        news="New morning train from Marrakesh to Casablanca from Monday, at 6:15.",
        voice="Marrakesh to the sea by train: desert, then sheep, then waves.",
        link=("A slow guide to Marrakesh", "The trains, the coast and the desert roads."),
        video="The coast from the train window, north of Marrakesh",
    ),
    DemoStory(
        author="alice",
        place="tbilisi",
        topic="sport",
        title="Cycling the hills around Tbilisi",
        description="Steep climbs and long views: the cycling club of Tbilisi's Sunday ride.",
        hashtags=("cycling",),
        text=(
            "Tbilisi lies in a valley, so every ride out of it starts with a climb. The club "
            "meets at seven by the river on Sundays.",
            "From the top of the ridge, the whole city is below you. #sport",
        ),
        news="The Tbilisi Sunday ride leaves the river bank at 7:00: all welcome.",
        voice="Climbed out of Tbilisi by bike. The view was the prize.",
        link=("The season ahead in Tbilisi", "Climbs, races and the Sunday rides."),
        draft=True,
    ),
    DemoStory(
        author="chloe",
        place="tromso",
        topic="music",
        title="A concert for the polar night in Tromsø",
        description="Tromsø's cathedral of ice hosts a concert in the middle of the polar night.",
        hashtags=("concerts", "choir"),
        text=(
            "In January Tromsø has no sun at all, and its Arctic cathedral holds a concert "
            "each night by candlelight.",
            "The choir sang into the dark, and the dark sang back. #music",
        ),
        news="Midnight concerts in Tromsø's Arctic cathedral all January.",
        voice="A choir in the Arctic cathedral in Tromsø. I have goosebumps still.",
        link=("The venues of Tromsø, from cellars to stages", "Concerts in the polar night."),
        draft=True,
        private=True,
    ),
)
